package gitstore

// Close ends the long-lived git processes of reads (the cat-file pool):
// idle ones at once, busy ones when their read ends. Reads that need one
// fail afterwards; writes and smart HTTP are unaffected. A Store that is
// never closed ends them when it is garbage collected, or as they idle out
// (Options.CatFileIdle).
func (s *Store) Close() error {
	s.catFiles.close()
	return nil
}

// Started is the number of git processes the Store has started, for
// metrics and for tests that a warm read starts none.
func (s *Store) Started() int64 { return s.launcher.started.Load() }

// CatFiles is the number of cat-file processes alive.
func (s *Store) CatFiles() int { return s.catFiles.alive() }
