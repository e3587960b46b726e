export * from './steps';
export * from './checkpoint';
export * from './orchestrator';
export { runBudgetOf, type BudgetedResource, type RunBudget } from './budget';
export {
  RESEARCH_STEPS,
  analyzeStep,
  compareStep,
  fetchStep,
  planStep,
  searchStep,
  synthesizeStep,
} from './steps/index';
