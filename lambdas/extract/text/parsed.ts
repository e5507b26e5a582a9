/** A parsed value and, when the text reads two ways, the other readings. */
export interface Parsed<V> {
  value: V;
  alternatives?: V[];
  /** Multiplies the finder's confidence (below 1 when the text was hard to read). */
  certainty?: number;
}
