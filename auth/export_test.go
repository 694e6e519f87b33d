package auth

// SetHashHook makes fn run with +1 when an argon2id computation takes its
// slot and -1 before it gives it back. Set it before the service is used.
func SetHashHook(s *Service, fn func(delta int)) { s.onHash = fn }
