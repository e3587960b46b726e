import { useEffect, useState } from 'react';
import type { Depth } from '../api/types';
import type { ProgressState } from './progress';
import { formatElapsed, isoDuration, stepPosition, stepText } from './step-progress';

/** The clock, read again every second while `ticking`. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * A running run's bar: the step (n of 6, and the round), the share of the whole run done, and the time since
 * it was asked for. The step line is a polite live region, so a screen reader hears each new step once; the
 * clock beside it ticks outside that region.
 */
export function StepBar({ progress, depth, createdAt }: { progress: ProgressState; depth: Depth; createdAt: string }) {
  const now = useNow(true);
  const position = stepPosition(progress, depth);
  const text = stepText(position);
  // The server's clock stamped the start: a browser clock behind it would show a negative time.
  const elapsed = Math.max(0, now - new Date(createdAt).getTime());
  return (
    <div className="step-bar">
      <div className="step-bar-line">
        <p role="status" id="step-text" className="step-text">
          {text}
        </p>
        <p className="step-elapsed">
          Elapsed <time dateTime={isoDuration(elapsed)}>{formatElapsed(elapsed)}</time>
        </p>
      </div>
      <progress aria-labelledby="step-text" max={position.total} value={position.done} />
    </div>
  );
}
