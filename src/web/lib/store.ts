/** The app's jotai store, so session actions outside React (log-in, log-out) update the same atoms. */
import { createStore } from 'jotai';

export const store = createStore();
