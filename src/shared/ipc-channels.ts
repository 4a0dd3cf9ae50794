// The channel names alone, for the preload: it needs to know which channels exist, not their
// schemas, so it stays small. ipc.ts checks at compile time that these lists and the contract
// name the same channels.
export const INVOKE_CHANNEL_NAMES = [
  'app:info',
  'session:get',
  'session:signIn',
  'session:signOut',
  'settings:get',
  'settings:update',
  'templates:list',
  'recording:start',
  'recording:chunk',
  'recording:pause',
  'recording:resume',
  'recording:stop',
  'recording:update',
  'consults:list',
  'consults:submit',
  'consults:retry',
  'consults:delete',
  'consults:note',
  'consults:noteFormats',
  'consults:export',
  'consults:askAgain',
  'consults:saveNote',
  'consults:audioUrl',
  'agents:ddx',
  'agents:treatmentPlan',
  'agents:medication',
  'org:setNotificationEmail',
  'org:setScribeWebhook',
  'org:get',
  'org:registerWebhook',
  'clipboard:write',
] as const;

export const EVENT_CHANNEL_NAMES = ['session:changed', 'consult:changed', 'consult:removed', 'note:ready', 'notice', 'recorder:activity', 'recorder:command'] as const;
