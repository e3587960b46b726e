import type { EvidenceScores } from '../api/report-types';
import { ScoreBar } from './ScoreBar';

const SCORES: { key: keyof Omit<EvidenceScores, 'evidence_type'>; name: string; label: string }[] = [
  { key: 'source_independence_score', name: 'Source independence', label: 'Independence' },
  { key: 'primary_source_proximity', name: 'Primary source proximity', label: 'Primary proximity' },
  { key: 'cross_source_support', name: 'Cross-source support', label: 'Support' },
  { key: 'contradiction_level', name: 'Contradiction level', label: 'Contradiction' },
  { key: 'evidence_directness', name: 'Evidence directness', label: 'Directness' },
  { key: 'date_relevance_score', name: 'Date relevance', label: 'Date relevance' },
];

/** A claim's six evidence scores as small bars. */
export function EvidenceBars({ evidence }: { evidence: EvidenceScores }) {
  return (
    <div className="evidence-bars" role="group" aria-label="Evidence scores">
      {SCORES.map((s) => (
        <ScoreBar key={s.key} name={s.name} label={s.label} value={evidence[s.key]} />
      ))}
    </div>
  );
}
