import UTIF from 'utif2';
import type { ImageKind } from './documentKind.js';
import { UnreadableImage } from './errors.js';

/**
 * Pages in an image upload: one for PNG and JPEG, one per image directory (IFD) for a TIFF, which
 * a scanner writes one page per directory. Only the directories are read, not the pixels.
 *
 * @throws UnreadableImage when the TIFF's directories cannot be read
 */
export const imagePageCount = (bytes: Uint8Array, kind: ImageKind): number => {
  if (kind !== 'tiff') return 1;
  try {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const pages = UTIF.decode(buffer).filter((ifd) => ifd.t256 !== undefined && ifd.t257 !== undefined);
    if (pages.length === 0) throw new Error('no image directory with a width and height');
    return pages.length;
  } catch (error) {
    throw new UnreadableImage(
      { kind, reason: error instanceof Error ? error.message : String(error) },
      { cause: error },
    );
  }
};
