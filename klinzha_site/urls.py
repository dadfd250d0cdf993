"""Top-level URLs: public pages, the API with its schema and docs, the admin."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from games.api.site_key import SiteKeyView
from tournaments import player_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("klinzha_site.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The site's public keys for records of battles played online (games.site_key).
    path(".well-known/klinzha-site-key", SiteKeyView.as_view(), name="site-key"),
]
urlpatterns += i18n_patterns(
    path("accounts/login/", player_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's own password reset; an invitation is its set-password link (services.accounts).
    path(
        "accounts/password-reset/",
        auth_views.PasswordResetView.as_view(form_class=player_views.InvitedPasswordResetForm),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/invite/<int:pk>/", player_views.invite, name="player-invite"),
    path("me/games/", player_views.my_games, name="my-games"),
    path("me/t/<slug:slug>/bye/", player_views.bye_ask, name="my-bye"),
    path("me/t/<slug:slug>/withdraw/", player_views.withdrawal_ask_view, name="my-withdrawal"),
    path("accounts/home/", player_views.after_login, name="after-login"),
    path("arbiter/", include("klinzha_site.arbiter_urls")),
    path("", include("tournaments.urls")),
    path("", include("games.urls")),
    prefix_default_language=False,
)

# Refusals inside the site's layout (templates/400.html, 403.html, 404.html); Django's own
# 400 view renders without the request, this one with it.
handler400 = player_views.bad_request
