// The recorder's IPC calls (`recording:*`). The audio of a recording under way is kept whoever
// sits in front now (access `recording`), and the recorder's answers are the computer's: a
// recording goes on through a switch of user. Its details are the consult's (`consults:update`).
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { Recorder } from './recorder.ts';

export function recorderCalls({ recorder }: { recorder: Recorder }): Calls<ChannelsOf<'recording'>> {
  return {
    'recording:start': { answers: 'computer', run: (input, actor) => recorder.start(input, actor) },
    'recording:chunk': { access: 'recording', answers: 'computer', run: (input) => recorder.chunk(input) },
    'recording:pause': { access: 'recording', answers: 'computer', run: ({ id }) => recorder.pause(id) },
    'recording:resume': { access: 'recording', answers: 'computer', run: ({ id }) => recorder.resume(id) },
    'recording:stop': {
      access: 'recording',
      answers: 'computer',
      run: ({ id, durationMs, pets }) => recorder.stop(id, durationMs, pets),
    },
    'recording:pets': { access: 'recording', answers: 'computer', run: ({ id, pets }) => recorder.pets(id, pets) },
  };
}
