/**
 * Writes `schemas/review-policy.schema.json` from the policy's zod schema (the one definition):
 * `npx tsx scripts/writePolicySchema.ts`. A test fails when the committed file differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reviewPolicyJsonSchema } from '../statemachine/reviewPolicies/authoring/index.js';

const path = join(import.meta.dirname, '..', 'schemas', 'review-policy.schema.json');
writeFileSync(path, `${JSON.stringify(reviewPolicyJsonSchema(), null, 2)}\n`);
console.log(`wrote ${path}; run npx biome check --write on it`);
