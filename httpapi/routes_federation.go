package httpapi

// federationRoutes are Forgejo's /nodeinfo and /activitypub operations.
// What each requires is declared by forge/federation
// (federation.Requirements). While federation is off (Forgejo's default,
// and Hearth's without a federation service) Forgejo registers none of
// them: each is absent and answers as an unknown route.
func (a *API) federationRoutes() []route {
	absent := !a.cfg.Federation.Enabled()
	const user, repo = "/activitypub/user-id/{user-id}", "/activitypub/repository-id/{repository-id}"
	return []route{
		{Method: "GET", Path: "/nodeinfo", Op: "getNodeInfo", absent: absent, h: a.getNodeInfo},
		{Method: "GET", Path: "/activitypub/actor", Op: "activitypubInstanceActor", absent: absent, h: a.getInstanceActor},
		{Method: "POST", Path: "/activitypub/actor/inbox", Op: "activitypubInstanceActorInbox", absent: absent, h: a.postInstanceInbox},
		{Method: "POST", Path: "/activitypub/actor/outbox", Op: "activitypubInstanceActorOutbox", absent: absent, h: a.postInstanceOutbox},
		{Method: "GET", Path: user, Op: "activitypubPerson", absent: absent, h: a.getPerson},
		{Method: "POST", Path: user + "/inbox", Op: "activitypubPersonInbox", absent: absent, h: a.postPersonInbox},
		{Method: "GET", Path: user + "/outbox", Op: "activitypubPersonFeed", absent: absent, h: a.getPersonOutbox},
		{Method: "GET", Path: user + "/activities/{activity-id}", Op: "activitypubPersonActivityNote", absent: absent, h: a.getPersonActivity("activitypubPersonActivityNote")},
		{Method: "GET", Path: user + "/activities/{activity-id}/activity", Op: "activitypubPersonActivity", absent: absent, h: a.getPersonActivity("activitypubPersonActivity")},
		{Method: "GET", Path: repo, Op: "activitypubRepository", absent: absent, h: a.getRepositoryActor},
		{Method: "POST", Path: repo + "/inbox", Op: "activitypubRepositoryInbox", absent: absent, h: a.postRepositoryInbox},
		{Method: "POST", Path: repo + "/outbox", Op: "activitypubRepositoryOutbox", absent: absent, h: a.postRepositoryOutbox},
	}
}
