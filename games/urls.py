"""URLs of the games app, included at the site root by handsite/urls.py. Use paths such as
"groups/<slug:group_slug>/games/..." and the handsite.access.group_view decorator."""

app_name = "games"

urlpatterns: list = []
