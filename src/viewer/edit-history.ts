// Undo and redo of the page's edits (lights, materials): a list of edit states, one after each
// change. Changes in quick succession (a slider being dragged) are one step.

const SAME_STEP_MS = 400;

export class EditHistory<State> {
  private states: State[];
  private at = 0;
  private lastChange = -Infinity;

  constructor(initial: State) {
    this.states = [initial];
  }

  /** Records the state after a change. */
  changed(state: State, now = performance.now()): void {
    const sameStep = now - this.lastChange < SAME_STEP_MS && this.at > 0;
    this.lastChange = now;
    this.states = this.states.slice(0, this.at + (sameStep ? 0 : 1));
    this.states.push(state);
    this.at = this.states.length - 1;
  }

  get canUndo(): boolean {
    return this.at > 0;
  }

  get canRedo(): boolean {
    return this.at < this.states.length - 1;
  }

  /** The state to go back to, or undefined when there is none. */
  undo(): State | undefined {
    if (!this.canUndo) return undefined;
    this.lastChange = -Infinity;
    return this.states[--this.at];
  }

  redo(): State | undefined {
    if (!this.canRedo) return undefined;
    this.lastChange = -Infinity;
    return this.states[++this.at];
  }
}
