// One 503 for every bounded wait of the showcase's databases (SQLite's lives with its busy handling).
export { databaseBusy } from './sqlite-busy.ts';
