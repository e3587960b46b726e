/**
 * Search queries a round may send: later rounds keep a share of the budget (up to 5 each), round 1
 * gets the rest; a later round gets an even share of what is left over the remaining rounds.
 */
export function queryAllowance(max: number, used: number, round: number, rounds: number): number {
  const left = Math.max(0, max - used);
  if (round === 1) {
    const reserve = (rounds - 1) * Math.min(5, Math.floor(max / (2 * rounds)));
    return Math.max(1, left - reserve);
  }
  return Math.ceil(left / Math.max(1, rounds - round + 1));
}

/** Sources a round may add: an even share of the room left over the remaining rounds. */
export function sourceAllowance(max: number, known: number, round: number, rounds: number): number {
  const left = Math.max(0, max - known);
  return Math.ceil(left / Math.max(1, rounds - round + 1));
}
