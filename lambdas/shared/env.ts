import { ConfigurationError } from './errors.js';

/**
 * Reads a required environment variable once, throwing a message that names the variable and
 * who should set it (the CDK construct on AWS, the local runtime on one machine).
 */
export const requireEnv = (name: string, env: NodeJS.ProcessEnv = process.env): string => {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigurationError(
      `Environment variable ${name} is not set. On AWS the stage's construct binds it; locally ` +
        '`npm start` sets it. Set it before invoking the handler.',
    );
  }
  return value;
};

/**
 * Reads an optional environment variable: undefined when unset, else the value as set. The one
 * place besides `requireEnv` and `intEnv` where shared code reads `process.env`.
 */
export const optionalEnv = (name: string, env: NodeJS.ProcessEnv = process.env): string | undefined =>
  env[name];

/** Reads an optional integer environment variable, or `fallback` when unset. */
export const intEnv = (name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number => {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) {
    throw new ConfigurationError(`Environment variable ${name} must be an integer; got "${raw}".`);
  }
  return value;
};
