import { z } from 'zod';
import { boundedText } from '../validation';

/** A caller's list of search queries: a run's extra_queries, a reviewed plan's queries and sub-questions. */
export function queryListSchema() {
  return z.array(boundedText(1, 500)).max(20, 'must have at most 20 items');
}
