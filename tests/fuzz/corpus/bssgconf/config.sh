#!/usr/bin/env bash
#
# BSSG - Configuration File
# Contains all configurable parameters for the static site generator
#
# For local configuration changes, create config.sh.local with your
# custom settings. Those settings will override the ones in this file.

# Directory configuration
SRC_DIR="src"
PAGES_DIR="pages"  # Directory for static pages
OUTPUT_DIR="output"
TEMPLATES_DIR="templates"
THEMES_DIR="themes"
STATIC_DIR="static"
DRAFTS_DIR="drafts" # Directory for drafts
THEME='default'
CACHE_DIR=".bssg_cache" # Default cache directory location (relative to BSSG root)

# Build configuration
CLEAN_OUTPUT=false # If true, BSSG will always perform a full rebuild
REBUILD_AFTER_POST=true # Build site automatically after creating a new post
REBUILD_AFTER_EDIT=false # Build site automatically after editing a post
PRECOMPRESS_ASSETS="false" # Options: "true", "false".
BUILD_MODE="ram" # Options: "normal", "ram".

# Customization
CUSTOM_CSS="" # Optional: Path to custom CSS file relative to output root

# Site information
SITE_TITLE="My new BSSG site"
SITE_DESCRIPTION="A complete SSG - written in bash"
SITE_URL="http://localhost:8000"
AUTHOR_NAME="oSoWoSo" 
AUTHOR_EMAIL="zen@duck.com"

# Content configuration
DATE_FORMAT="%Y-%m-%d %H:%M:%S %z"
TIMEZONE="local"  # Options: "local", "GMT", or a specific timezone
SHOW_TIMEZONE="false" # Options: "true", "false".
POSTS_PER_PAGE=10
RSS_ITEM_LIMIT=15 # Number of items to include in the RSS feed.
RSS_INCLUDE_FULL_CONTENT="false" # Options: "true", "false".
RSS_FILENAME="rss.xml" # The filename for the main RSS feed
INDEX_SHOW_FULL_CONTENT="false" # Options: "true", "false".
ENABLE_ARCHIVES=true  # Enable or disable archive pages
ENABLE_AUTHOR_PAGES=false # Enable or disable author pages (default: false)
ENABLE_AUTHOR_RSS=false # Enable or disable author-specific RSS feeds
SHOW_AUTHORS_MENU_THRESHOLD=2 # Minimum authors to show menu (default: 2)
URL_SLUG_FORMAT="Year/Month/Day/slug" # Format for post URLs
ENABLE_TAG_RSS=false # Enable or disable tag-specific RSS feed generation

# Archive Page Configuration
ARCHIVES_LIST_ALL_POSTS="false" # If true, list all posts on the main archive page.

# Page configuration
PAGE_URL_FORMAT="slug" # Format for page URLs. Available: slug, filename

# Markdown processing configuration
MARKDOWN_PROCESSOR="pandoc" # Options: "pandoc", "commonmark", or "markdown.pl"

# Language Configuration
export SITE_LANG="en"  # Default language code (e.g., en, es, fr).

# Related Posts Configuration
ENABLE_RELATED_POSTS=true # Enable or disable related posts feature
RELATED_POSTS_COUNT=3 # Number of related posts to show (default: 3)

# Server Configuration (for 'bssg.sh server' command)
BSSG_SERVER_PORT_DEFAULT="8000"    # Default port for the local development server
BSSG_SERVER_HOST_DEFAULT="localhost" # Default host for the local development server

# Deployment configuration
DEPLOY_AFTER_BUILD="false" # Automatically deploy after a successful build.
DEPLOY_SCRIPT=""           # Path to the deployment script to execute.

# Terminal colors for output
RED='\033[0;31m'
GREEN='\033[0;32m'
YELLOW='\033[0;33m'
NC='\033[0m' # No Color
