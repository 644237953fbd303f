import type { Profile } from './profile.js';

/**
 * `build` memoised per model object and profile, with `validate` run the first time a model is
 * seen: a model is checked once and compiled once per profile, however many rounds are played.
 */
export function compiledPerProfile<Model extends object, Compiled>(
  validate: (model: Model) => void,
  build: (model: Model, profile: Profile) => Compiled,
): (model: Model, profile: Profile) => Compiled {
  const cache = new WeakMap<Model, Map<Profile, Compiled>>();
  return (model, profile) => {
    let byProfile = cache.get(model);
    if (!byProfile) {
      validate(model);
      byProfile = new Map();
      cache.set(model, byProfile);
    }
    let compiled = byProfile.get(profile);
    if (compiled === undefined) {
      compiled = build(model, profile);
      byProfile.set(profile, compiled);
    }
    return compiled;
  };
}
