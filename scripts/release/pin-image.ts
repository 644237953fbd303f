/**
 * The release step that pins the production image by digest: it sets `digest:` in the `reelstream`
 * entry of an overlay's kustomization `images:`, which is what
 * `kustomize edit set image reelstream=<newName>:<newTag>@<digest>` does, keeping that entry's
 * `newName` and `newTag` and the file's comments. Kustomize then renders every reelstream container
 * as `<newName>:<newTag>@<digest>`: the tag is there for people, the runtime pulls the digest.
 *
 * The repository cannot hold the digest of an image built from itself, so the committed production
 * overlay holds UNPINNED_DIGEST until a release pins it (k8s/README.md, "Before production").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isMap, isSeq, parseDocument } from 'yaml';

/** The name the manifests give the platform's image, the one `images:` rewrites. */
const APP_IMAGE_NAME = 'reelstream';
/**
 * What the committed production overlay holds until `npm run release:pin`: shaped like a digest so a
 * reader sees which field to set, but with no hex, so no runtime can resolve it (the kubelet refuses
 * the pod as InvalidImageName) and the k8s checks and `release:pin -- --check` refuse it.
 */
export const UNPINNED_DIGEST = 'sha256:UNPINNED-set-by-npm-run-release-pin';
/** A manifest digest as registries give it (`podman push --digestfile`, `Docker-Content-Digest`). */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

export interface ImageEntry {
  readonly name: string;
  readonly newName?: string;
  readonly newTag?: string;
  readonly digest?: string;
}

/** The `images:` entry named `image` of a kustomization's text; throws when it has none. */
export function imageEntry(kustomization: string, image = APP_IMAGE_NAME): ImageEntry {
  const parsed = parseDocument(kustomization).toJS() as { images?: ImageEntry[] } | null;
  const entry = parsed?.images?.find((candidate) => candidate.name === image);
  if (!entry) throw new Error(`the kustomization has no images: entry named ${image}`);
  return entry;
}

/** The image reference kustomize renders for an entry: `<newName>[:<newTag>][@<digest>]`. */
export function renderedReference(entry: ImageEntry): string {
  return `${entry.newName ?? entry.name}${entry.newTag ? `:${entry.newTag}` : ''}${entry.digest ? `@${entry.digest}` : ''}`;
}

/** The kustomization's text with `digest` set in the `images:` entry named `image` (comments kept). */
export function pinnedKustomization(kustomization: string, digest: string, image = APP_IMAGE_NAME): string {
  if (!DIGEST_PATTERN.test(digest))
    throw new Error(
      `${digest} is not an image digest: give the sha256:<64 hex> that the registry answered the push with`,
    );
  const document = parseDocument(kustomization);
  if (document.errors.length > 0) throw new Error(document.errors.map((error) => error.message).join('; '));
  const images = document.get('images');
  const entry = isSeq(images) ? images.items.find((item) => isMap(item) && item.get('name') === image) : undefined;
  if (!isMap(entry)) throw new Error(`the kustomization has no images: entry named ${image}`);
  entry.set('digest', digest);
  return document.toString();
}

/** Pins the `reelstream` image of the kustomization file at `file` to `digest`; what it held before and holds now. */
export function pinImageDigest(file: string, digest: string): { before: ImageEntry; after: ImageEntry } {
  const text = readFileSync(file, 'utf8');
  const pinned = pinnedKustomization(text, digest);
  writeFileSync(file, pinned);
  return { before: imageEntry(text), after: imageEntry(pinned) };
}

/** Why an image reference is not pinned by digest (empty when it is). */
export function digestProblems(image: string): string[] {
  const at = image.indexOf('@');
  if (at < 0) return [`image ${image} has no @sha256: digest: pin it with npm run release:pin -- <digest>`];
  const digest = image.slice(at + 1);
  if (digest === UNPINNED_DIGEST)
    return [`image ${image} is on the unpinned placeholder: pin it with npm run release:pin -- <digest>`];
  if (!DIGEST_PATTERN.test(digest)) return [`image ${image} has a malformed digest (sha256:<64 hex>)`];
  return [];
}
