import { synthOrExit } from './constructs';
import { buildReferenceApp } from './reference/app';

// Built inside synthOrExit, so invalid construct props print as field errors (exit 1), not a stack trace.
synthOrExit(() => buildReferenceApp());
