/** A score in [0, 1] as a bar with its number; read out as "<name> 0.NN". */
export function ScoreBar({ name, label = name, value }: { name: string; label?: string; value: number }) {
  const clamped = Math.min(1, Math.max(0, value));
  const shown = clamped.toFixed(2);
  return (
    <div className="score" role="img" aria-label={`${name} ${shown}`}>
      <span className="score-label">{label}</span>
      <span className="score-track">
        {/* A width set from script is CSSOM, which the page's CSP allows (no inline style attribute). */}
        <span className="score-fill" style={{ width: `${clamped * 100}%` }} />
      </span>
      <span className="score-value">{shown}</span>
    </div>
  );
}
