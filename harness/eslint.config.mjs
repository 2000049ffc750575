// Not published: the shared lint config for the emulator, the test harness, scripts and tests (see eslint.dev.mjs).
export { default } from '../eslint.dev.mjs';
