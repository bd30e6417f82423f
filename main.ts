import { synthOrExit } from './constructs';
import { buildReferenceApp } from './reference/app';

synthOrExit(buildReferenceApp());
