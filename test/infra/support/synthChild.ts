/**
 * Process entry for `synthDocketInChild`: synthesizes with bundling into the directory given as
 * first argument, then prints the template file's path as one line.
 */
import { join } from 'node:path';
import { synthDocket } from './synthDocket.js';

const outdir = process.argv[2];
if (!outdir) throw new Error('usage: synthChild.ts <outdir>');
const synth = synthDocket({ bundle: true, outdir });
process.stdout.write(`${join(outdir, `${synth.stack.artifactId}.template.json`)}\n`);
