import { ApiError } from './api.js';

/**
 * The words a reviewer sees for each refusal of the API, whether the review is closed to them
 * (`final`), and who holds it when another reviewer's claim is what refused them.
 */
export const refusal = (error: unknown): { text: string; final: boolean; claimedBy?: string } => {
  if (!(error instanceof ApiError)) return { text: (error as Error).message, final: false };
  switch (error.status) {
    case 409:
      // Two 409s leave the review open: one still being set up, one another reviewer is on.
      if (error.code === 'ReviewNotReady') return { text: `Not ready yet: ${error.message}`, final: false };
      if (error.code === 'ReviewClaimed') {
        const holder =
          typeof error.details.claimedBy === 'string' ? error.details.claimedBy : 'Another reviewer';
        return {
          text: `${holder} is working on this review. Take it over to work on it yourself, or pick another one.`,
          final: false,
          claimedBy: holder,
        };
      }
      return {
        text: `Someone else got here first: ${error.message} Nothing you entered was saved.`,
        final: true,
      };
    case 410:
      // The API's sentence says when, and that nothing changed.
      return { text: `This review has expired: ${error.message}`, final: true };
    case 404:
      return { text: `${error.message} It may belong to another tenant, or the link is wrong.`, final: true };
    case 401:
      return { text: `Your session is no longer valid (${error.message}). Sign in again.`, final: true };
    default:
      return { text: error.message, final: false };
  }
};
