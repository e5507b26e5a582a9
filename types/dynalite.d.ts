// dynalite ships no type declarations; this covers the server factory Docket uses.
declare module 'dynalite' {
  import type { Server } from 'node:http';
  interface DynaliteOptions {
    /** LevelDB directory; in memory when omitted. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    ssl?: boolean;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}
