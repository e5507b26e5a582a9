/** A screen of the console. */
export interface View {
  element: HTMLElement;
  /** Keyboard shortcuts of this screen. */
  onKey?: (event: KeyboardEvent) => void;
  /** Stops timers and releases what the screen holds. */
  dispose?: () => void;
}
