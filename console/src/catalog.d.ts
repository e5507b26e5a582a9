import type { FieldCatalog } from '../fieldCatalog.js';

declare global {
  /** The field catalog, inlined by console/build.ts (esbuild `define`). */
  const __FIELD_CATALOG__: FieldCatalog;
}
