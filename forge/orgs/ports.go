package orgs

// Ports are the organisation service's trusted ports: the methods the
// composition root (forge/site) calls with no actor, because it has
// already decided who acts. Ports check nothing. Only NewWithPorts makes
// one.
type Ports struct{ s *Service }

// NewWithPorts is New, with the service's trusted ports, for the
// composition root. New(cfg) is the same service without them.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}
