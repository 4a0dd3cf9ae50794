export {
  canonicalJson,
  canonicalJsonFromValue,
  compareCodePoints,
  quoteString,
  MAX_DEPTH,
  WebhookPayloadError,
} from './canonical-json.ts';
export { signWebhook, verifySignature, verifyWebhook, SIGNATURE_HEADER } from './signature.ts';
