package auth

import "context"

// acquireHash waits for a free argon2id slot, or until ctx ends.
func (s *Service) acquireHash(ctx context.Context) error {
	select {
	case s.hashSlots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	if s.onHash != nil {
		s.onHash(+1)
	}
	return nil
}

func (s *Service) releaseHash() {
	if s.onHash != nil {
		s.onHash(-1)
	}
	<-s.hashSlots
}

// hashPassword is HashPassword with the service's parameters, within the
// concurrency limit.
func (s *Service) hashPassword(ctx context.Context, password string) (string, error) {
	if err := s.acquireHash(ctx); err != nil {
		return "", err
	}
	defer s.releaseHash()
	return HashPassword(password, s.pwd)
}

// verifyHash is VerifyPassword within the concurrency limit.
func (s *Service) verifyHash(ctx context.Context, password, hash string) (bool, error) {
	if err := s.acquireHash(ctx); err != nil {
		return false, err
	}
	defer s.releaseHash()
	return VerifyPassword(password, hash), nil
}
