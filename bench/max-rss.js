// Loaded with `node -r` by the bench: prints the process's peak resident memory at exit, so the
// bench can compare the memory of lint with that of a parse-only pass.
process.on('exit', () => {
  process.stderr.write(`\nmax-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
