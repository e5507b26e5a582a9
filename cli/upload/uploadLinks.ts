import { describeHttpRefusal } from '../describeError.js';

/** An upload link the review API gave out: where to PUT one file, and the headers signed into it. */
export interface UploadLink {
  key: string;
  url: string;
  headers: Record<string, string>;
}

/** Asks the review API for upload links, as the bearer of `token`. */
export type RequestUploadLink = (fileName: string, size: number, contentType: string) => Promise<UploadLink>;

/**
 * A client of `POST /uploads`: the API decides the key (under the token's tenant only) and signs a
 * PUT for exactly this size and type. A refusal becomes an error with the API's own message.
 */
export const uploadLinks =
  (apiUrl: string, token: string): RequestUploadLink =>
  async (fileName, size, contentType) => {
    const response = await fetch(new URL('uploads', apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fileName, size, contentType }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(describeHttpRefusal(response.status, text));
    return JSON.parse(text) as UploadLink;
  };
