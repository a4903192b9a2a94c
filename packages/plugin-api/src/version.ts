/**
 * The plugin-API version (SemVer major.minor; see docs/plugin-authoring.md "Versions"): a plugin
 * whose manifest names another major, or a newer minor, is refused. A minor adds to the API
 * (new optional members, new extension points, new services); anything a plugin written for
 * this major could rely on changing or going away is a new major.
 * @category Versions
 */
export const PLUGIN_API_VERSION = "2.4";
