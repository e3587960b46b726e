export { readQuestion, type AnswerKind, type AskedQuestion, type Comparison } from './question';
export { answerSpans, dateSpans, nameSpans, numberSpans, type AnswerSpan } from './spans';
export {
  answerWork,
  findAnswer,
  MAX_HOPS,
  MIN_COVERAGE,
  type AnswerClaim,
  type AnswerReading,
  type AnswerSource,
  type FoundAnswer,
} from './find-answer';
