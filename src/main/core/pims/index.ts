// The practice-management system (PIMS): the port the rest of the app asks for a vet's day, a
// patient and the consultation a note goes into; the sign-in to it through the system browser
// (OAuth 2 with PKCE and a loopback redirect); the vet's tokens for it in the secret store; and
// the send of a note that never writes twice; the app's use of it for one vet at a time
// (PracticeSystem: setup, sign-in, the day, links, sending); and Provet Cloud, its first adapter.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { signInWithBrowser, type BrowserSignInOptions, type OpenBrowser } from './browser-sign-in.ts';
export type { PimsHttpOptions } from './http.ts';
export { startLoopbackReceiver, type LoopbackReceiver } from './loopback.ts';
export {
  authorizeRequestUrl,
  exchangeCode,
  newPkce,
  newState,
  pkceChallenge,
  probeAuthorize,
  readUserInfo,
  refreshTokens,
  revokeToken,
  type OAuthClient,
  type TokenSet,
} from './oauth.ts';
export {
  PimsError,
  type Pims,
  type PimsAppointment,
  type PimsConsultation,
  type PimsErrorCode,
  type PimsNote,
  type PimsPatient,
  type WriteNote,
  noteWithMarker,
} from './port.ts';
export {
  NoteSender,
  noteMarker,
  type NoteSenderOptions,
  type PatientSendRecord,
  type PatientSendState,
  type SendNote,
  type SendRecord,
} from './send.ts';
export { PimsTokens, pimsTokensName, type PimsAccount } from './tokens.ts';
export { PracticeSystem, type PracticeSystemOptions } from './practice.ts';
export { pimsCalls } from './calls.ts';
export { patientFor, VisitLinks, type VisitLink } from './links.ts';
export { dayView, TodayCopies, today as localToday } from './today.ts';
export { provetInstance, provetOAuthClient, type ProvetInstance } from './provet/instance.ts';
export { listUrl, localDay, provetDateTime, readAllPages as readProvetPages, type Filter } from './provet/lists.ts';
export { ProvetNotes, type ProvetNotesOptions } from './provet/notes.ts';
export { ProvetPims, type ProvetPimsOptions } from './provet/pims.ts';
export { ProvetReader, type ProvetReaderOptions } from './provet/reader.ts';
export { provetGet } from './provet/requests.ts';
export {
  provetAppointment,
  provetConsultation,
  provetNote,
  provetPatient,
  readProvet,
  toPimsAppointment,
  type ProvetAppointment,
} from './provet/schemas.ts';
