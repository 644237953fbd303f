/**
 * The release every process reports as `service.version`: the repository's package.json version,
 * inlined into each app's bundle at build time, so a running image reports what it was built from.
 */
// eslint-disable-next-line @nx/enforce-module-boundaries -- the root package.json is no project; it is the release's one version
import rootPackage from '../../../../package.json' with { type: 'json' };

export const RELEASE_VERSION: string = rootPackage.version;
