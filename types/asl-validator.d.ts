// asl-validator ships no type declarations; this covers the one call the tests make.
declare module 'asl-validator' {
  interface AslValidationResult {
    isValid: boolean;
    errors: { message?: string }[];
    errorsText: (separator?: string) => string;
  }
  export default function aslValidator(
    definition: unknown,
    options?: { checkPaths?: boolean; checkArn?: boolean },
  ): AslValidationResult;
}
