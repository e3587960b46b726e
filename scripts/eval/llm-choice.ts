// Which language model an evaluation runs with: none (the extractive pipeline), the project's fake
// OpenAI-compatible server (a plausible model, or one that plans badly), or the user's own server.
import { offTopicPlannerResponder, plausibleResponder, startFakeLlm } from '../../test/fakes/fake-llm';

export type LlmChoice =
  | { kind: 'none' }
  | { kind: 'fake'; model: 'plausible' | 'off-topic' }
  | { kind: 'own'; baseUrl: string; model: string };

export interface EvalLlm {
  /** How the table names it. */
  readonly label: string;
  /** The LLM settings of the service's processes ('' unsets one). */
  readonly env: Record<string, string>;
  /** LLM requests the fake server received (undefined for the user's own server or none). */
  requestsSeen(): number | undefined;
  close(): Promise<void>;
}

/**
 * `--llm` absent: the user's LLM_BASE_URL when set, else none. `--llm`: the user's LLM_BASE_URL when set, else
 * the fake. `--llm=fake`: the fake's plausible model; `--llm=nonsense`: a fake model whose plans search only
 * off-topic queries; `--llm=none`: no LLM even when LLM_BASE_URL is set.
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
    case 'none':
      return { kind: 'none' };
    default:
      throw new Error(`--llm=${flag}: expected --llm, --llm=fake, --llm=nonsense or --llm=none`);
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
  fake.responder = choice.model === 'off-topic' ? offTopicPlannerResponder() : plausibleResponder();
  return {
    label:
      choice.model === 'off-topic'
        ? 'fake LLM that plans badly (off-topic queries; test/fakes/fake-llm.ts)'
        : 'fake LLM, plausible model (test/fakes/fake-llm.ts)',
    env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: `fake-${choice.model}`, LLM_API_KEY: '' },
    requestsSeen: () => fake.requests.length,
    close: () => fake.close(),
  };
}
