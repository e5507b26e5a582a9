import * as z from 'zod';

/** A vocabulary's list of words or phrases: each trimmed, 1 to 80 characters, 200 at most. */
export const WordListSchema = z.array(z.string().trim().min(1).max(80)).max(200);
