import type { Principal } from '@research/auth';
import type { Logger } from '@research/observability';

/** Who asks and under which request id: what a use case needs to know about a call, without req/res. */
export interface RequestScope {
  readonly actor: Principal;
  readonly requestId: string;
  readonly logger: Logger;
}
