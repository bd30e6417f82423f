export * from './ballast-gate';
export * from './prop-error';
export * from './synth-or-exit';
