type Leaf = string | number | boolean | null | undefined | readonly unknown[];

/**
 * Every dotted attribute path of `T` (`review`, `review.claimedBy`, `summary.${string}`...), to
 * a depth of four: the keys an update or a condition may name. Arrays are leaves, since a patch
 * replaces a list whole.
 */
export type PathOf<T, Depth extends unknown[] = []> = Depth['length'] extends 4
  ? never
  : T extends Leaf
    ? never
    : {
        [K in keyof T & string]-?: NonNullable<T[K]> extends Leaf
          ? K
          : K | `${K}.${PathOf<NonNullable<T[K]>, [...Depth, unknown]>}`;
      }[keyof T & string];

/** The type of the attribute at a dotted path of `T`. */
export type ValueAt<T, P extends string> = P extends `${infer K}.${infer Rest}`
  ? K extends keyof T
    ? ValueAt<NonNullable<T[K]>, Rest>
    : T extends Record<string, infer V>
      ? V
      : never
  : P extends keyof T
    ? T[P]
    : T extends Record<string, infer V>
      ? V
      : never;
