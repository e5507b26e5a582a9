import { ApiError } from './api.js';

/** The words a reviewer sees for each refusal of the API. */
export const refusal = (error: unknown): { text: string; final: boolean } => {
  if (!(error instanceof ApiError)) return { text: (error as Error).message, final: false };
  switch (error.status) {
    case 409:
      return {
        text: `Someone else got here first: ${error.message} Nothing you entered was saved.`,
        final: true,
      };
    case 410:
      return {
        text: `This review has expired: ${error.message} Its time ran out before a decision.`,
        final: true,
      };
    case 404:
      return { text: `${error.message} It may belong to another tenant, or the link is wrong.`, final: true };
    case 401:
      return { text: `Your session is no longer valid (${error.message}). Sign in again.`, final: true };
    default:
      return { text: error.message, final: false };
  }
};
