// The banner that says an update is ready. The only way in from outside this folder.
export { UpdateBanner } from './update-banner.tsx';
