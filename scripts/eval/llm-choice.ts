// Which language model an evaluation runs with: none (the extractive pipeline), the project's fake
// OpenAI-compatible server (a plausible model, one that plans badly, or one that judges stance from the data
// set's labels), or the user's own server.
import {
  offTopicPlannerResponder,
  plausibleResponder,
  stanceJudgeResponder,
  startFakeLlm,
  type StanceLabels,
} from '../../test/fakes/fake-llm';

export type LlmChoice =
  | { kind: 'none' }
  | { kind: 'fake'; model: 'plausible' | 'off-topic' | 'stance-judge' }
  | { kind: 'own'; baseUrl: string; model: string };

export interface EvalLlm {
  /** How the table names it. */
  readonly label: string;
  /** The LLM settings of the service's processes ('' unsets one). */
  readonly env: Record<string, string>;
  /** LLM requests the fake server received (undefined for the user's own server or none). */
  requestsSeen(): number | undefined;
  /**
   * Gives a scripted stance judge the evaluation's labels (which sentences support or refute each
   * question); absent for every other model, which judges on its own.
   */
  learnStances?(labels: StanceLabels): void;
  close(): Promise<void>;
}

/**
 * `--llm` absent: the user's LLM_BASE_URL when set, else none. `--llm`: the user's LLM_BASE_URL when set, else
 * the fake. `--llm=fake`: the fake's plausible model; `--llm=nonsense`: a fake model whose plans search only
 * off-topic queries; `--llm=judge`: a fake model that judges each claim's stance from the data set's labels,
 * missing a fifth of the refutations and wrongly calling 1 % of the other claims refuting (the plausible
 * model otherwise); `--llm=none`: no LLM even when LLM_BASE_URL is set.
 */
export function chooseLlm(flag: string | undefined, env: NodeJS.ProcessEnv): LlmChoice {
  const own = env.LLM_BASE_URL?.trim();
  const ownChoice: LlmChoice | undefined = own ? { kind: 'own', baseUrl: own, model: env.LLM_MODEL ?? '' } : undefined;
  switch (flag) {
    case undefined:
      return ownChoice ?? { kind: 'none' };
    case '':
      return ownChoice ?? { kind: 'fake', model: 'plausible' };
    case 'fake':
      return { kind: 'fake', model: 'plausible' };
    case 'nonsense':
      return { kind: 'fake', model: 'off-topic' };
    case 'judge':
      return { kind: 'fake', model: 'stance-judge' };
    case 'none':
      return { kind: 'none' };
    default:
      throw new Error(`--llm=${flag}: expected --llm, --llm=fake, --llm=nonsense, --llm=judge or --llm=none`);
  }
}

/** Starts what `choice` needs (the fake server) and gives the processes' settings. */
export async function startEvalLlm(choice: LlmChoice): Promise<EvalLlm> {
  if (choice.kind === 'none') {
    const env = { LLM_BASE_URL: '', LLM_MODEL: '', LLM_API_KEY: '' };
    return { label: 'no LLM (extractive pipeline)', env, requestsSeen: () => undefined, close: async () => undefined };
  }
  if (choice.kind === 'own') {
    // LLM_API_KEY and the other LLM settings reach the processes from the environment as they are.
    const label = `LLM ${choice.model || '(default model)'} at ${choice.baseUrl}`;
    return { label, env: {}, requestsSeen: () => undefined, close: async () => undefined };
  }
  const fake = await startFakeLlm({ model: `fake-${choice.model}` });
  const labels = {
    plausible: 'fake LLM, plausible model (test/fakes/fake-llm.ts)',
    'off-topic': 'fake LLM that plans badly (off-topic queries; test/fakes/fake-llm.ts)',
    'stance-judge': 'fake LLM judging stance from the labels, 20 % of refutations missed (test/fakes/fake-llm.ts)',
  };
  fake.responder =
    choice.model === 'off-topic'
      ? offTopicPlannerResponder()
      : choice.model === 'stance-judge'
        ? stanceJudgeResponder(new Map())
        : plausibleResponder();
  return {
    label: labels[choice.model],
    env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: `fake-${choice.model}`, LLM_API_KEY: '' },
    requestsSeen: () => fake.requests.length,
    ...(choice.model === 'stance-judge'
      ? { learnStances: (stances: StanceLabels) => void (fake.responder = stanceJudgeResponder(stances)) }
      : {}),
    close: () => fake.close(),
  };
}
