package auth

// Ports are auth's trusted operations: they take no actor, so they are not
// on the published Service. Only the composition root (forge/site)
// receives them, from NewWithPorts, and hands them to the adapters that
// need them (ActivatedEmails: GPG key verification).
type Ports struct{ s *Service }

// NewWithPorts is New, also returning the service's Ports.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}
