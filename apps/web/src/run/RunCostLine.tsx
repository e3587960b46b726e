import { Fragment } from 'react';
import type { RunCost } from '../api/types';
import { costParts } from './cost';

/**
 * What the run spent so far, under its counts: read again with them at each new state, so it grows as the run
 * goes. A narrow screen wraps it between its parts, never inside one.
 */
export function RunCostLine({ cost }: { cost: RunCost }) {
  return (
    <p className="run-cost">
      Spent:{' '}
      {costParts(cost).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && ' · '}
          <span>{part}</span>
        </Fragment>
      ))}
    </p>
  );
}
