// Signing in, signing out and "Switch user". The only way in from outside this folder.
export { SignIn } from './sign-in.tsx';
export { SignOutButton } from './sign-out-button.tsx';
export { SwitchUserButton } from './switch-user-button.tsx';
export { RecordingGoesOn, SignedOutHeader, useSignInAsked } from './while-signed-out.tsx';
