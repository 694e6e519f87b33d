package wire

import "encoding/json"

// MarshalJSON writes u as Forgejo's api.User.MarshalJSON does: its fields
// and, for backward compatibility, "username", the login again. Forgejo
// writes it in every user object of its API and webhook payloads, beyond
// its OpenAPI document.
func (u User) MarshalJSON() ([]byte, error) {
	type plain User // without this method
	return json.Marshal(struct {
		plain
		CompatUserName string `json:"username"`
	}{plain(u), u.UserName})
}
