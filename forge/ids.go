package forge

// ID identifies a stored entity. IDs are positive; zero means "none".
type ID = int64
