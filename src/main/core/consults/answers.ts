// The agents' answers kept with a consult: differentials asked from its note are stored beside
// it (answer-store.ts), listed on the consult's note and
// opened again from there, and deleted with the consult. The service call runs outside the
// consult's turn (a slow answer must not hold up an edit or a delete); the answer is written in
// it, so one that comes back after its consult was deleted is dropped, never written back.
import { randomUUID } from 'node:crypto';
import type { KeptAnswer } from '../../../shared/ipc.ts';
import type { DdxResult } from '../../../shared/service/index.ts';
import { actorUser, type Actor } from '../sign-in/index.ts';
import type { ConsultParts } from './parts.ts';

export type ConsultAnswersOptions = Pick<ConsultParts, 'access' | 'pipeline' | 'answers' | 'trail'> & {
  /** The differential-diagnosis agent (`POST /ddx_agent_v2`), with the asking vet's sign-in. */
  ddx(input: string, actor: Actor): Promise<DdxResult>;
  now?: () => number;
};

export class ConsultAnswers {
  private readonly options: ConsultAnswersOptions;

  constructor(options: ConsultAnswersOptions) {
    this.options = options;
  }

  /**
   * Asks for differentials from the consult's note (as plain text) for `actor`, and keeps the
   * answer with the consult, noted on its trail as theirs, whoever is signed in when it lands.
   */
  async askDdx(id: string, input: string, actor: Actor): Promise<KeptAnswer> {
    const { access, pipeline, answers, trail, now = Date.now } = this.options;
    access.consultFor(id, actor);
    const question = input.trim();
    const result = await this.options.ddx(question, actor);
    return pipeline.inTurn(id, async () => {
      // Deleted (or no longer the asking vet's to see) while the service answered: not_found, and nothing is written.
      access.consultFor(id, actor);
      const kept: KeptAnswer = {
        answerId: randomUUID(),
        kind: 'ddx',
        askedAt: new Date(now()).toISOString(),
        question,
        result,
      };
      // The consult's trail says who started the conversation; an entry that cannot be written
      // refuses the keeping as a whole (the vet is told), as every other action does.
      await trail.add(id, 'conversation', { who: actorUser(actor) });
      await answers.add(id, kept);
      return kept;
    });
  }

  list(id: string): Promise<KeptAnswer[]> {
    const { access, pipeline, answers } = this.options;
    return pipeline.inTurn(id, () => {
      access.consultFor(id);
      return answers.list(id);
    });
  }
}
