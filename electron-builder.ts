// Installers (`npm run dist`): NSIS on Windows, dmg (and the zip the updater uses) on macOS,
// AppImage and deb on Linux.
// electron-builder finds this file by its name; the version comes from package.json, and
// nothing here overrides it. Resources (icon, entitlements) live in build/.
import type { Configuration } from 'electron-builder';

const config: Configuration = {
  appId: 'com.vetscribe.desktop',
  productName: 'Vet Scribe',
  copyright: 'Copyright © Vet Scribe',
  directories: { output: 'dist', buildResources: 'build' },
  // The built app only. electron-builder adds package.json and the production node_modules
  // itself, but main bundles every dependency but keytar (electron.vite.config.ts) and the
  // window's libraries are bundled into out/renderer: any other package would only be dead
  // weight in the archive, as would the packages' source maps. keytar (a native addon that
  // needs nothing else at run time) is the one package kept.
  files: ['out/**', '!**/*.map', '!node_modules/**', 'node_modules/keytar/**'],
  asar: true,
  // A native addon cannot be loaded from inside the archive.
  asarUnpack: ['**/*.node', 'node_modules/keytar/**'],
  // keytar is an N-API addon: the binary `npm install` built loads in Electron as it is, and a
  // rebuild would fetch Electron's headers from the internet.
  npmRebuild: false,
  // A generic feed, so that `npm run dist` writes latest.yml / latest-mac.yml / latest-linux.yml
  // beside the installers (what the clinic's IT puts on its update server) and the app carries
  // the updater's own settings. The address is a placeholder: the app uses the feed set in
  // Settings, and none at all without one (src/main/auto-update.ts). Nothing is uploaded
  // anywhere (`dist` passes --publish never).
  publish: [{ provider: 'generic', url: 'https://updates.invalid/vet-scribe/' }],
  // Electron's app.setDesktopName documentation: the .desktop name is the app's identity on
  // Linux (its Wayland app_id, and the app id the xdg-desktop-portal gives GlobalShortcuts), and
  // must be reverse-DNS; the portal refuses the shortcut's bind for a name that is not, without
  // the app hearing of it (electron/electron#52218). The appId's form, whole: Electron and
  // syncDesktopName both strip one ".desktop", so 'com.vetscribe.desktop' alone would become
  // 'com.vetscribe'.
  extraMetadata: { desktopName: 'com.vetscribe.desktop.desktop' },
  // Set in the Electron binary at packaging (@electron/fuses), so they hold whatever the
  // environment of the clinic's PC says.
  electronFuses: {
    // ELECTRON_RUN_AS_NODE would turn the signed app into a plain Node that runs any script.
    runAsNode: false,
    // NODE_OPTIONS / NODE_EXTRA_CA_CERTS could inject code or a trusted CA into main.
    enableNodeOptionsEnvironmentVariable: false,
    // --inspect would hand main (and the tokens it holds) to any local debugger. The
    // end-to-end suite drives the unpackaged app, which has no fuses set.
    enableNodeCliInspectArguments: false,
    // macOS and Windows check app.asar against the hash signed into the binary...
    enableEmbeddedAsarIntegrityValidation: true,
    // ...and only app.asar is loaded, so an unpacked app/ folder beside it cannot replace it.
    onlyLoadAppFromAsar: true,
    // Cookies on disk are encrypted with the OS key, as Chrome does.
    enableCookieEncryption: true,
    // One V8 snapshot for every process, as Electron ships it.
    loadBrowserProcessSpecificV8Snapshot: false,
    // Stays on: the window is loaded from file:// and its ES module scripts need the file
    // scheme's privileges to load.
    grantFileProtocolExtraPrivileges: true,
    // Flipping fuses rewrites the binary and breaks its signature. Without a clinic certificate
    // nothing signs it again, and Apple Silicon refuses to launch an unsigned app: an ad-hoc
    // signature is put back here. With a certificate, electron-builder signs after this anyway.
    resetAdHocDarwinSignature: true,
  },

  win: {
    target: 'nsis',
    icon: 'build/icon.png',
    // verifyUpdateCodeSignature stays on (electron-builder's default): a signed build gets its
    // publisher (signtoolOptions.publisherName, else the certificate's common name) in
    // resources/app-update.yml, which src/main/auto-update.ts carries into the settings the
    // updater reads, so that only an installer signed by that publisher is installed.
  },
  nsis: {
    // Installs for the current user into %LOCALAPPDATA%: exam-room PCs rarely give the vet
    // admin rights, and no step of the installer asks for them.
    oneClick: true,
    perMachine: false,
    allowElevation: false,
    packElevateHelper: false,
    createDesktopShortcut: true,
    createStartMenuShortcut: true,
    // Recordings and notes are clinical records: uninstalling never deletes them.
    deleteAppDataOnUninstall: false,
  },

  mac: {
    // The zip is what the updater installs on macOS; the dmg is for a first install.
    target: ['dmg', 'zip'],
    icon: 'build/icon.png',
    category: 'public.app-category.medical',
    // Required for notarization; the entitlements give back what Electron needs under it.
    hardenedRuntime: true,
    entitlements: 'build/entitlements.mac.plist',
    entitlementsInherit: 'build/entitlements.mac.plist',
    extendInfo: {
      NSMicrophoneUsageDescription:
        'Vet Scribe records the consultation so that a clinical note can be written from it.',
    },
  },
  dmg: {
    sign: false,
  },

  linux: {
    target: ['AppImage', 'deb'],
    icon: 'build/icon.png',
    category: 'Office',
    synopsis: 'Desktop scribe for veterinary clinics',
    maintainer: 'Vet Scribe',
    // Electron takes the window's WM_CLASS from desktopName, so the running window is matched
    // to the launcher entry of the same name.
    syncDesktopName: true,
  },
  // The AppImage on the static runtime: electron-builder 26's default appimage toolset ("0.0.0")
  // builds it on the FUSE2 runtime, which needs libfuse2, and neither Ubuntu 22.04 nor 24.04
  // installs it, so the AppImage would not start there. "1.0.3" is the static runtime (20251108)
  // in electron-builder's own list of appimage toolsets (app-builder-lib's ToolsetConfig),
  // downloaded by `npm run dist` like its other tools. Its desktop entry no longer carries
  // --no-sandbox; the AppImage's launcher still adds it where user namespaces are refused, as on
  // Ubuntu 24.04, which is why the README sends 24.04 to the deb.
  toolsets: { appimage: '1.0.3' },
  deb: {
    // On Ubuntu 24.04 AppArmor refuses unprivileged user namespaces, and Chromium's sandbox needs
    // one (electron/electron#42510, electron-userland/electron-builder#8440). The deb installs
    // electron-builder's AppArmor profile for the app (resources/apparmor-profile, copied to
    // /etc/apparmor.d by its after-install script; electron-userland/electron-builder#8635),
    // which grants it `userns`, and sets up chrome-sandbox where namespaces are missing. An
    // AppImage can do neither, so the deb is the install for 24.04.
    // Electron's own needs (electron-builder's default list) and libsecret, which keytar loads
    // to keep the tokens in the desktop's keyring.
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
    ],
  },
};

export default config;
