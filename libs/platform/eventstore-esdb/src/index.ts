export { openEsdbEventStore } from './open.js';
export { InvalidConnectionStringError } from './connection-string.js';
